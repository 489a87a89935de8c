"""Render: print-and-play PDFs (card sheets, backs, one-up pages) from a deck version."""
