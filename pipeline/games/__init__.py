"""Games: rules engines that simulate the three games to check how a deck plays."""
