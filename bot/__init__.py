"""The Discord side of Meeple Post: the only package that awaits."""
