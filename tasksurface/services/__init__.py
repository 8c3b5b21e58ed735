"""Application services: plain values in, small frozen results out, one transaction per command."""
