"""Views of the tracker's results for people: text renderers of the plain data the service returns."""
