"""The learner's records: ``learner`` (the learner's name, from the hub or the page address), ``lesson_record`` (what
a lesson sends the class server of the learner's work), ``my_progress`` (the learner's own records, read back)."""
