"""Table geometry: pointy-top hex cells, boards, movement ranges and pixel layout."""
