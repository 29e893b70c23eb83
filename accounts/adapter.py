"""The account adapter: allauth's, with two changes.

- An account email that cannot go (the mail server down, refusing, or too slow: SMTPException,
  OSError and its socket errors and timeouts) is said in words on the next page (messages
  framework, in the reader's language), never a 500; allauth's "sent" message is then left out,
  and the verification email's cool-down is cleared so that asking again sends at once.
- An account that holds no email address row (made by an admin or a command, never by sign-up,
  which always records one) signs in as before; an account with an address must have it verified
  (``EmailVerificationStage``). Accounts that existed before got their email as a verified
  address (migration 0001_verified_emails)."""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage as AllauthEmailVerificationStage
from allauth.core import ratelimit
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from kyoku.text import email_clean

logger = logging.getLogger(__name__)

MAIL_ERRORS: tuple[type[BaseException], ...] = (smtplib.SMTPException, OSError)
FAILED_KEY = "_kyoku_mail_failed"
# allauth's "sent" messages, left out when that email could not go
SENT_MESSAGES = (
    "account/messages/email_confirmation_sent.txt",
    "account/messages/email_confirmation_resent.txt",
)


def mail_failed(request: HttpRequest | None) -> set[str]:
    """The addresses this request could not send to."""
    if request is None:
        return set()
    failed: set[str] = getattr(request, FAILED_KEY, set())
    return failed


class AccountAdapter(DefaultAccountAdapter):
    def clean_email(self, email: str) -> str:
        """Sign-up and an added address: the site's one rule for addresses (``kyoku.text.email_clean``:
        ASCII, valid, lower-cased), so an address in another script is refused in words here too."""
        try:
            email = email_clean(email, field="email")
        except ValidationError as exc:
            raise ValidationError(exc.error_dict["email"]) from None
        cleaned: str = super().clean_email(email)
        return cleaned

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        try:
            super().send_mail(template_prefix, email, context)
        except MAIL_ERRORS as exc:
            self.mail_failure_tell(template_prefix, email, exc)

    def mail_failure_tell(self, template_prefix: str, email: str, exc: BaseException) -> None:
        request = self.request
        logger.warning("account email %s to %s not sent: %r", template_prefix, email, exc)
        if request is None:
            return
        failed = mail_failed(request)
        failed.add(email.lower())
        setattr(request, FAILED_KEY, failed)
        # the cool-down counted this attempt; nothing went, so asking again must send
        ratelimit.clear(request, action="confirm_email", key=email.lower())
        messages.error(request, mail_failure_words(template_prefix, email))

    def add_message(
        self,
        request: HttpRequest,
        level: int,
        message_template: str | None = None,
        message_context: dict[str, Any] | None = None,
        extra_tags: str = "",
        message: str | None = None,
    ) -> None:
        if message_template in SENT_MESSAGES and mail_failed(request):
            return
        super().add_message(request, level, message_template, message_context, extra_tags, message)

    def get_login_stages(self) -> list[str]:
        return [
            "accounts.adapter.EmailVerificationStage"
            if stage == "allauth.account.stages.EmailVerificationStage"
            else stage
            for stage in super().get_login_stages()
        ]


def mail_failure_words(template_prefix: str, email: str) -> str:
    """What the person is told when ``template_prefix``'s email to ``email`` could not go."""
    what = {
        "account/email/email_confirmation_signup": _("the link to verify your email address"),
        "account/email/email_confirmation": _("the link to verify your email address"),
        "account/email/password_reset_key": _("the link to reset your password"),
        "account/email/unknown_account": _("the link to reset your password"),
        "account/email/account_already_exists": _("a notice about your account"),
    }.get(template_prefix, _("a notice about your account"))
    again = {
        "account/email/email_confirmation_signup": _("Sign in again to be sent a new link."),
        "account/email/email_confirmation": _("Ask again for the link to be sent."),
        "account/email/password_reset_key": _("Ask again for a reset link."),
        "account/email/unknown_account": _("Ask again for a reset link."),
    }.get(template_prefix, "")
    words = _(
        "The email with %(what)s could not be sent to %(email)s: the mail server is not answering. "
        "Nothing was lost; try again in a few minutes."
    ) % {"what": what, "email": email}
    return f"{words} {again}".strip()


class EmailVerificationStage(AllauthEmailVerificationStage):
    """allauth's stage, passed by an account that holds no address row (nothing was ever signed
    up with, so nothing to verify)."""

    def handle(self) -> tuple[HttpResponse | None, bool]:
        user = self.login.user
        if user is not None and not self.login.signup:
            if not EmailAddress.objects.filter(user_id=user.pk).exists():
                return None, True
        response, cont = super().handle()
        return response, cont
