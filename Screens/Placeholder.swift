import CNcursesW
