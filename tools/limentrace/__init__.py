# SPDX-License-Identifier: Apache-2.0
"""Limen's trace tools: decode a trace buffer (docs/trace.md), count what
happened (TraceX-style statistics), export it (Chrome trace-event JSON) and
draw it (a self-contained HTML timeline). Standard library only."""
from .decode import Trace, TraceError, load  # noqa: F401
