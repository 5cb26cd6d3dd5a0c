import { PRODUCT_DEFAULTS, type Product } from "@glide/contracts";
import { Download, Plus, Upload } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { apiUrl, errorMessage } from "../../lib/api.ts";
import { ConfirmDialog } from "../../ui/alert-dialog.tsx";
import { Button, buttonClass } from "../../ui/button.tsx";
import { useSidebar } from "../../ui/sidebar.tsx";
import { useIsPlatformAdmin } from "../auth/admin-context.ts";
import { PageHeader } from "../shell/page-header.tsx";
import { PagedList } from "../shell/paged-list.tsx";
import { ImportDialog } from "./import-dialog.tsx";
import { ProductDialog } from "./product-dialog.tsx";
import { ProductGrid } from "./product-grid.tsx";
import { ProductListCards } from "./product-list-cards.tsx";
import { ProductTable } from "./product-table.tsx";
import { ProductToolbar } from "./product-toolbar.tsx";
import { useProductListParams } from "./use-product-list-params.ts";
import { type ProductSort, type SortField, useProductViewPrefs } from "./use-product-view-prefs.ts";
import { useCategories, useDeleteProduct, useProducts } from "./use-products.ts";

type EditorState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; product: Product };

export default function ProductsPage() {
  // Store admins read the catalogue; only platform admins change it.
  const canManage = useIsPlatformAdmin();
  const params = useProductListParams();
  const { viewMode, setViewMode, sort, sortBy, setSort } = useProductViewPrefs();
  // The table's eight columns do not fit a phone: its list view is a column of cards.
  const { isMobile } = useSidebar();
  const term = params.query.trim();
  const category = params.category === PRODUCT_DEFAULTS.all_categories ? undefined : params.category;
  const products = useProducts({
    search: term || undefined,
    category,
    sort: sort.field,
    order: sort.order,
    limit: params.pageSize,
    offset: (params.page - 1) * params.pageSize,
  });
  const categories = useCategories();
  const deleteProduct = useDeleteProduct();

  const [editor, setEditor] = useState<EditorState>({ mode: "closed" });
  const [importing, setImporting] = useState(false);
  const [toDelete, setToDelete] = useState<Product | null>(null);

  const onSort = (field: SortField) => {
    sortBy(field);
    params.resetPage();
  };
  const onSortChange = (next: ProductSort) => {
    setSort(next);
    params.resetPage();
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    const { id, name } = toDelete;
    deleteProduct.mutate(id, {
      onSuccess: () => toast.success(`${name} deleted`),
      onError: (error) => toast.error(errorMessage(error, "Failed to delete product")),
    });
  };

  const exportHref = apiUrl("/api/v1/products/export", { search: term, category });
  const actions = {
    canManage,
    onEdit: (product: Product) => setEditor({ mode: "edit", product }),
    onDelete: setToDelete,
  };
  return (
    <div className="grid grid-cols-1 gap-4">
      <PageHeader
        title="Global Product Database"
        actions={
          <>
            <a href={exportHref} download className={buttonClass("outline")}>
              <Download aria-hidden="true" />
              Export CSV
            </a>
            {canManage ? (
              <>
                <Button variant="outline" onClick={() => setImporting(true)}>
                  <Upload aria-hidden="true" />
                  Import CSV
                </Button>
                <Button onClick={() => setEditor({ mode: "create" })}>
                  <Plus aria-hidden="true" />
                  Add Product
                </Button>
              </>
            ) : null}
          </>
        }
      />

      <ProductToolbar
        search={params.search}
        onSearchChange={params.setSearch}
        category={params.category}
        categories={categories.data ?? []}
        onCategoryChange={params.setCategory}
        viewMode={viewMode}
        onViewModeChange={setViewMode}
        total={products.data?.total}
      />

      <PagedList
        query={products}
        paging={params}
        pageSizes={params.pageSizes}
        loadingLabel="Loading products"
        errorLabel="Failed to load products"
      >
        {(list, busy) =>
          viewMode === "grid" ? (
            <ProductGrid products={list} busy={busy} {...actions} />
          ) : isMobile ? (
            <ProductListCards products={list} sort={sort} onSortChange={onSortChange} busy={busy} {...actions} />
          ) : (
            <ProductTable products={list} sort={sort} onSort={onSort} busy={busy} {...actions} />
          )
        }
      </PagedList>

      <ProductDialog
        open={editor.mode !== "closed"}
        onOpenChange={(open) => {
          if (!open) setEditor({ mode: "closed" });
        }}
        product={editor.mode === "edit" ? editor.product : undefined}
      />
      <ImportDialog open={importing} onOpenChange={setImporting} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Are you sure you want to delete this product?"
        description={`${toDelete?.name ?? "The product"} will be removed. This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
      />
    </div>
  );
}
