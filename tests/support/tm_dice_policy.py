"""The goal-seeking Terraforming Mars: The Dice Game player lives in ai/tm_dice.py, where the
computer players' rollouts use it too; the tests and the bench keep importing it from here."""

from ai.tm_dice import choose

__all__ = ["choose"]
