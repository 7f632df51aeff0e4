"""The built resources (font, card sheets, pointers), made from pyxres/src/ by
scripts/build_resources.py. A package only so that an installed wheel carries them
beside ``port``: the Screen unit finds them at ``port/../pyxres``."""
