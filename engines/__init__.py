"""Pure rule engines: no I/O, no clock, no global random, no web or database imports."""
