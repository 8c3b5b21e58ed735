"""The pure core: ids, the V1 model, limits, parsing, submissions and projection folds."""
