"""Views of the tournaments: pages."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
