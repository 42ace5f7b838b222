"""The build folder on disk: its names (``layout``), atomic writes (``files``), reading it back
(``buildfolder``) and the JSON Schemas of its records (``schemas``).
"""
