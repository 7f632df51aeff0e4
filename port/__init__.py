"""GinRummy: a Python port of David Teach's DOS card game (Turbo Pascal 7.0, BGI).

The units of the original, one module (or package) each: cards, rules, files
(plain Python), screen, mouse (pyxel) and main (joins them). Nothing runs at import.
"""
__version__ = "0.1.0"
