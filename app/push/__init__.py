"""Web Push: tell a player, on their phone, that it is their move (docs/pwa.md).

``keys`` holds the server's VAPID key pair; ``endpoints`` decides which push services a
subscription may name; ``notices`` writes a notice in the player's language; ``sender``
queues notices after a commit and sends them off the move path.
"""
