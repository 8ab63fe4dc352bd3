"""The body of a download the test client fetched, for tests that read streamed responses."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from django.http.response import HttpResponseBase


def streamed(response: HttpResponseBase) -> bytes:
    """The whole body of a streamed response; fails if the response was not streamed."""
    assert isinstance(response, StreamingHttpResponse), type(response)
    return response.getvalue()
