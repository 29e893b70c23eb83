from django.contrib import admin

from . import models

admin.site.register(models.Incident)
admin.site.register(models.Ruling)
admin.site.register(models.Appeal)
admin.site.register(models.PenaltyCatalogue)
