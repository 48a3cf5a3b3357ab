"""The Moderators group and its permissions: reading games, seats, moves, users, chat,
reports, sanctions and the audit log; the moderation actions. Nothing else: moderators
cannot add, change or delete rows in the admin, only act through its actions."""

from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("accounts", "view_user"),
    ("games", "view_game"),
    ("games", "view_seat"),
    ("games", "view_move"),
    ("chat", "view_chatmessage"),
    ("moderation", "view_report"),
    ("moderation", "view_sanction"),
    ("moderation", "view_auditentry"),
    ("moderation", "hide_message"),
    ("moderation", "mute_user"),
    ("moderation", "suspend_user"),
    ("moderation", "abort_game"),
    ("moderation", "settle_game"),
    ("moderation", "handle_report"),
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally made after all migrations (post_migrate); make them now.
    for label in {app for app, _ in PERMISSIONS}:
        app_config = apps.get_app_config(label)
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("accounts", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
