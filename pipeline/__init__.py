"""geodeck: public statistics in, printable and play-checked geography card games out."""

__version__ = "0.1.0"
