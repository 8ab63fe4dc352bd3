from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:  # django-stubs makes the form classes generic; at run time they are not
    SignupFormBase = UserCreationForm[User]
    UserFormBase = forms.ModelForm[User]
else:
    SignupFormBase = UserCreationForm
    UserFormBase = forms.ModelForm


class SignupForm(SignupFormBase):
    """Username and password twice; an email address is optional (only for a password reset)."""

    email = forms.EmailField(
        label=_("E-Mail-Adresse (freiwillig)"),
        required=False,
        help_text=_("Nur, um ein vergessenes Passwort zurückzusetzen. Du kannst sie später ändern."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    # Whether a name is taken is asked only of a signup that is otherwise complete, and that
    # asking costs a slot of the signup limit (:meth:`save_if_free`, :func:`.views.signup`): a
    # form with a bad password must not tell which names exist, or names could be probed freely.
    taken_message = _("Diesen Namen gibt es schon. Bitte wähle einen anderen.")

    def clean_username(self) -> str:
        return str(self.cleaned_data.get("username") or "")

    def validate_unique(self) -> None:
        """No check here: the name is the form's only unique field, checked by :meth:`save_if_free`."""

    def save_if_free(self) -> User | None:
        """The new account, or None (and the form's error) when the name is taken already, by
        any spelling in capitals or small letters (as Django's own check)."""
        name = self.cleaned_data["username"]
        if not get_user_model().objects.filter(username__iexact=name).exists():
            try:
                with transaction.atomic():
                    user: User = self.save()
                return user
            except IntegrityError:  # taken at the same moment by another signup
                pass
        self.add_error("username", self.taken_message)
        return None


class EmailForm(UserFormBase):
    """Change or remove the address used for password resets.

    Asks for the current password: whoever can set the address can reset the password, so a
    borrowed or stolen session alone must not be enough to take the account over."""

    password = forms.CharField(
        label=_("Dein Passwort"),
        help_text=_("Zur Bestätigung, dass du es bist."),
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    class Meta:
        model = get_user_model()
        fields = ("email",)
        labels = {"email": _("E-Mail-Adresse")}
        help_texts = {"email": _("Leer lassen, um sie zu entfernen. Ohne Adresse geht kein Zurücksetzen per Mail.")}

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.instance.check_password(password):
            raise forms.ValidationError(_("Das Passwort stimmt nicht."), code="wrong_password")
        return password


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label=_("Dein Passwort"), widget=forms.PasswordInput(attrs={"autocomplete": "current-password"})
    )
    confirm = forms.BooleanField(label=_("Ja, mein Konto und alle meine Daten sollen gelöscht werden."))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("Das Passwort stimmt nicht."), code="wrong_password")
        return password
