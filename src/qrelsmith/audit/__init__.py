"""qrelsmith.audit."""
