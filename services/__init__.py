"""Services: the platform's async work without Discord: games, tournaments, ratings, the
challenge, delivery, the scheduler, computer turns, pictures, and all storage."""
