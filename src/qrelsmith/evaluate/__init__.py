"""qrelsmith.evaluate."""
