"""Admin: invitations for teachers (with an action that grants the role directly), classes."""

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Classroom, Membership, TeacherInvitation
from .services import new_join_code

if TYPE_CHECKING:  # django-stubs makes the admin classes generic; at run time they are not
    InvitationAdminBase = admin.ModelAdmin[TeacherInvitation]
    ClassroomAdminBase = admin.ModelAdmin[Classroom]
    MembershipInlineBase = admin.TabularInline[Membership, Classroom]
else:
    InvitationAdminBase = ClassroomAdminBase = admin.ModelAdmin
    MembershipInlineBase = admin.TabularInline


@admin.register(TeacherInvitation)
class TeacherInvitationAdmin(InvitationAdminBase):
    list_display = ("code", "uses_left", "note", "created_by", "created_at")
    search_fields = ("code", "note")
    readonly_fields = ("created_by", "created_at")

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {"code": new_join_code() + new_join_code()[:4]}

    def save_model(self, request: HttpRequest, obj: TeacherInvitation, form: Any, change: bool) -> None:
        if not change and isinstance(request.user, User):  # the admin is behind a staff login
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class MembershipInline(MembershipInlineBase):
    model = Membership
    extra = 0
    raw_id_fields = ("student",)


@admin.register(Classroom)
class ClassroomAdmin(ClassroomAdminBase):
    list_display = ("name", "teacher", "join_code", "created_at")
    search_fields = ("name", "join_code", "teacher__username")
    raw_id_fields = ("teacher",)
    inlines = [MembershipInline]
    actions = ["rotate_codes"]

    @admin.action(description=_("Neue Beitrittscodes vergeben"))
    def rotate_codes(self, request: HttpRequest, queryset: QuerySet[Classroom]) -> None:
        from .services import rotate_code

        for classroom in queryset:
            rotate_code(classroom=classroom)
        self.message_user(request, _("Die Codes sind erneuert."), messages.SUCCESS)
