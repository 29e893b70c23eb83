"""Django's JSON serialization without its millisecond rounding, for backups.

``DjangoJSONEncoder`` cuts datetimes and times to milliseconds (the ECMAScript form), so a
backup written with it restores ``12:00:00.000400`` as ``12:00:00``: not the same row. This
format writes full ``isoformat()`` (microseconds kept); Django's ordinary ``json`` deserializer
reads it back, so a restore needs nothing special. Registered in ``SERIALIZATION_MODULES``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.serializers import json as django_json
from django.core.serializers.json import DjangoJSONEncoder


class ExactJSONEncoder(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            text = o.isoformat()
            return text[:-6] + "Z" if text.endswith("+00:00") else text
        if isinstance(o, datetime.time):
            return o.isoformat()
        return super().default(o)


class Serializer(django_json.Serializer):
    def _init_options(self) -> None:
        self.options.setdefault("cls", ExactJSONEncoder)
        super()._init_options()  # type: ignore[misc]  # a Django hook the stubs do not declare


Deserializer = django_json.Deserializer
