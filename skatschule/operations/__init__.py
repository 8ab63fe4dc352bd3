"""Operations: health check, demo data, the load script (``python -m skatschule.operations.load``)."""
