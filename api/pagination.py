from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """``?page=2&page_size=50``; every list in the API is cut into pages."""

    page_size_query_param = "page_size"
    max_page_size = 100
