"""The compiler: YAML content -> validated content model -> rule tables and printable outputs.

Never imports `scarbook.campaign`. Heavy libraries (jsonschema, Jinja2, WeasyPrint) are imported
only inside the functions that need them, so that the tracker can use the content model cheaply.
"""
