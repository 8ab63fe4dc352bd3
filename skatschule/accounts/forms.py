from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
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
