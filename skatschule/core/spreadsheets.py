"""Tables as CSV and XLSX files that open right in spreadsheet programs (quiz results, class
progress): one formula-injection guard for both, a UTF-8 byte-order mark and ``;`` under German
(German Excel splits at semicolons), ``,`` under English. Times are cells of their own kind in the
site's time zone (:func:`local_datetime`): an XLSX date cell, in CSV ``2026-11-24 18:05:00``,
which spreadsheet programs read as a date. Numbers (``int``, ``float``) are numbers: XLSX number
cells, and in a CSV split at semicolons (German Excel) written with a decimal comma (``4,5``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TypeGuard

__all__ = [
    "csv_cells",
    "default_delimiter",
    "guard",
    "local_datetime",
    "table_csv_bytes",
    "table_xlsx_bytes",
]

DATE_FORMAT = "yyyy-mm-dd hh:mm"


def local_datetime(value: datetime | None) -> datetime | None:
    """An aware time as a naive one in the site's time zone (``TIME_ZONE``), to the second, for a
    date cell: spreadsheets have no time zones, and the pages show local time too."""
    if value is None:
        return None
    from django.utils import timezone

    return timezone.localtime(value).replace(tzinfo=None, microsecond=0)


_INT = re.compile(r"[+-]?\d{1,15}")


def default_delimiter(lang: str) -> str:
    return "," if lang == "en" else ";"


def guard(cell: object) -> str:
    """Keep spreadsheet programs from reading a cell as a formula (names are free text): a text
    starting with = + - @, tab or CR gets an apostrophe; plain numbers stay numbers."""
    text = str(cell)
    if text and text[0] in "=+-@\t\r" and not re.fullmatch(r"[+-]?\d+", text):
        return "'" + text
    return text


def _number_text(value: float, comma: bool) -> str:
    """``4.5`` as ``4,5`` (comma) or ``4.5``; at most four decimals, no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
    return text.replace(".", ",") if comma else text


def _is_number(cell: object) -> TypeGuard[float]:
    return isinstance(cell, (int, float)) and not isinstance(cell, bool)


def csv_cells(row: Sequence[object], delimiter: str) -> list[str]:
    """One row's cells for a CSV file: texts guarded, numbers with a decimal comma unless the
    delimiter is a comma (every CSV of the site writes its rows through here)."""
    comma = delimiter != ","
    return [_number_text(cell, comma) if _is_number(cell) else guard(cell) for cell in row]


def table_csv_bytes(table: Sequence[Sequence[object]], lang: str = "de", delimiter: str | None = None) -> bytes:
    """Any table as guarded CSV with a UTF-8 BOM (also used by the class progress export)."""
    delimiter = delimiter or default_delimiter(lang)
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerows(csv_cells(row, delimiter) for row in table)
    return buffer.getvalue().encode("utf-8")


def table_xlsx_bytes(table: Sequence[Sequence[object]], title: str) -> bytes:
    """Any table as one XLSX sheet: numbers (and texts of whole numbers) as numbers, all else as
    guarded text, never a formula."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import TYPE_STRING

    book = Workbook()
    sheet = book.active
    sheet.title = title[:31]
    for r, row in enumerate(table, start=1):
        for c, raw in enumerate(row, start=1):
            cell = sheet.cell(row=r, column=c)
            if isinstance(raw, datetime):
                cell.value = raw
                cell.number_format = DATE_FORMAT
                continue
            if r > 1 and _is_number(raw):
                cell.value = raw
                continue
            value = guard(raw)
            if r > 1 and _INT.fullmatch(value):
                cell.value = int(value)
            else:
                cell.value = value
                cell.data_type = TYPE_STRING  # never a formula, whatever the text starts with
    sheet.freeze_panes = "B2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
