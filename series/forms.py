from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a username longer than any account's before it tries
    to authenticate: Django sets that limit on the field too late for it to be checked, and
    a failed attempt is stored by django-axes in a column of 255 characters, which
    PostgreSQL refuses to overflow (a 100 kB username was a 500)."""

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        limit = User._meta.get_field("username").max_length or 150
        if len(username) > limit:
            raise ValidationError(_("Use at most %(count)s characters.") % {"count": limit})
        return username
