"""The settings of the sites the tests serve in processes of their own (``manage.py serve``,
``shell``, ``migrate``): the product's (``config.settings``), with a fast password hasher.

The product hashes a password with PBKDF2 at a million iterations, 0.2 s of a core on
purpose; the served sites' scripts create dozens of users and their browsers log in about as
often, so that strength cost the suite tens of seconds of its two cores and tested nothing the
in-process tests (which use the same hasher, ``tests/conftest.py``) do not. The product's own
hasher stays second, so a password it hashed still opens.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
