"""Model backends: the offline scripted agent (default) and, later, real providers."""
