"""The teacher's page (``notebooks/teacher/teacher.ipynb``): ``page`` (``TeacherApp`` and the client of the teacher
endpoints), ``teacher_charts``, ``teacher_html`` and ``teacher_links`` (its charts, HTML tables and class links)."""
