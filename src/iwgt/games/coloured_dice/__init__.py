"""The Coloured-Dice Fantasy Battle Rules: the Finnish mass-battle game of eight coloured dice."""
