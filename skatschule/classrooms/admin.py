"""Admin: invitations for teachers (with an action that grants the role directly), classes."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from .models import Classroom, Membership, TeacherInvitation
from .services import new_join_code


@admin.register(TeacherInvitation)
class TeacherInvitationAdmin(admin.ModelAdmin):
    list_display = ("code", "uses_left", "note", "created_by", "created_at")
    search_fields = ("code", "note")
    readonly_fields = ("created_by", "created_at")

    def get_changeform_initial_data(self, request):
        return {"code": new_join_code() + new_join_code()[:4]}

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("student",)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "teacher", "join_code", "created_at")
    search_fields = ("name", "join_code", "teacher__username")
    raw_id_fields = ("teacher",)
    inlines = [MembershipInline]
    actions = ["rotate_codes"]

    @admin.action(description=_("Neue Beitrittscodes vergeben"))
    def rotate_codes(self, request, queryset):
        from .services import rotate_code

        for classroom in queryset:
            rotate_code(classroom)
        self.message_user(request, _("Die Codes sind erneuert."), messages.SUCCESS)
