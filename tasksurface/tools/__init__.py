"""Tools the app plugs into the generic agent."""
