"""Transform: parse raw snapshots into tidy tables and harmonize them to ISO 3166-1 alpha-3 keys."""
