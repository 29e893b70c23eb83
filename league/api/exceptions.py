"""Map service-layer errors onto HTTP: Django ValidationError → 400 with the field names,
a result conflict → 409."""

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def validation_payload(exc: DjangoValidationError) -> dict:
    if hasattr(exc, "error_dict"):
        errors = {field: [str(m) for e in errs for m in e.messages] for field, errs in exc.error_dict.items()}
    else:
        errors = {"non_field_errors": [str(m) for m in exc.messages]}
    first_field, first_msgs = next(iter(errors.items()))
    return {"detail": f"{first_field}: {first_msgs[0]}", "errors": errors}


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        from league.services import ResultConflict

        code = status.HTTP_409_CONFLICT if isinstance(exc, ResultConflict) else status.HTTP_400_BAD_REQUEST
        return Response(validation_payload(exc), status=code)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        # Serializer errors: keep DRF's per-field shape under "errors" and add a one-line detail.
        errors = response.data
        field, msgs = next(iter(errors.items())) if errors else ("request", ["invalid"])
        msg = msgs[0] if isinstance(msgs, list) and msgs else msgs
        response.data = {"detail": f"{field}: {msg}", "errors": errors}
    return response
