"""The two legalization passes, in dry-run (findings) and apply mode."""
