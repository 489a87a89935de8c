"""Source parsers: `read(store, source)` fetches raw bytes, `parse(raw)` turns them into a documented table."""
