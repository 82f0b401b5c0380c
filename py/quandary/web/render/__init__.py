"""Pure renderers: view dictionaries in, HTML strings out. No ``js`` here."""
