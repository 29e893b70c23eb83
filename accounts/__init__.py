"""Accounts: the glue between django-allauth and Kyoku (the adapter that survives a mail server
that is down, the sign-in of accounts without an email, django-axes' one lock per account, the
429 and 403 answers, the second-factor banner and the league security page)."""
