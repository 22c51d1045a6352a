"""Load-generator imports: Iometer access specifications and fio job files or JSON results."""
