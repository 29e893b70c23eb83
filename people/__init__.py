"""People: a person claims their player (an invitation link, a link request by membership number),
creates their own player, downloads their data and closes their account (docs/privacy.md)."""
