"""The card room: people and bots play GinRummy and Cribbage against each other over websockets."""
