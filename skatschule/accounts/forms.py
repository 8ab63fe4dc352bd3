from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Username and password twice; nothing else is needed to keep one's progress."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
