"""The table client: a lesson's side of a class table. ``table_link`` (the connection to the table server: HTTP
through ``railkit.ui.class_http``, one WebSocket speaking ``railkit.wire``), ``table_play`` (the panel a play lesson
shows: create, join, watch, play), ``table_game``/``table_moves``/``table_showing``/``table_html``/``table_widgets``
(what the panel shows and asks), ``table_replay`` (a finished game's review), ``table_announce`` (what a screen reader
hears), ``class_link`` (the class's links to a table or a lesson, read from the page address)."""
