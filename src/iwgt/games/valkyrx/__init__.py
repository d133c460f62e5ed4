"""Days of the Valkyrx: the flagship hex-cell game of the Intelligent Wargames Table."""
