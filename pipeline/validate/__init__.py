"""Validate: schemas, cross-source checks and the declared precedence that choose each card value."""
