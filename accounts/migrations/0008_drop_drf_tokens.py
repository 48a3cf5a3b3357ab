"""Drop DRF's ``authtoken_token`` table, left behind when ``rest_framework.authtoken`` left
INSTALLED_APPS for django-rest-knox (issue 16): it held every user's API token in clear.
Those tokens stop working; their owners log in for new ones (``POST /api/auth/token/``).
Its migration records, content type and permissions go too, so that installing the app again
would start from an empty table."""

from django.db import migrations

DRF_TABLE = "authtoken_token"


def drop_drf_tokens(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
    if DRF_TABLE in tables:
        schema_editor.execute(f"DROP TABLE {schema_editor.quote_name(DRF_TABLE)}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = %s", ["authtoken"])
    ContentType = apps.get_model("contenttypes", "ContentType")
    ContentType.objects.using(connection.alias).filter(app_label="authtoken").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_api_tokens"),
        # Its content type goes with its permissions (and admin log entries keep theirs, unlinked).
        ("admin", "0003_logentry_add_action_flag_choices"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(drop_drf_tokens, migrations.RunPython.noop, elidable=True)]
