"""geodeck: public statistics in, printable and play-checked geography card games out."""

from pipeline import compiled

__version__ = "0.1.0"

compiled.use_fresh()  # before any engine is imported: never run an extension older than its source
