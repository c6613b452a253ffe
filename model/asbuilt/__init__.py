"""The as-built loop: what was plugged and measured in the hall, compared with the design."""
