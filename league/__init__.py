"""League: the pure rules of play between games: tournament formats and pairings, standings
and tie-breaks, rating maths, the weekly challenge's rules. No awaits, no discord, no SQL."""
