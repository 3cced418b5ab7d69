port module Main exposing
    ( Model
    , Msg(..)
    , Priority
    , main
    , (</>)
    )

{-| A small to-do list: a Browser.element app that saves its items through a port. -}

import Browser
import Html exposing (Html, button, div, input, li, text, ul)
import Html.Attributes as Attr
import Html.Events exposing (onClick, onInput)
import Json.Decode as Decode exposing (Decoder)
import Json.Encode as Encode

{-| One item of the list.
-}
type alias Item =
    { id : Int
    , title : String
    , done : Bool
    }

{-| The whole state of the app.
-}
type alias Model =
    { items : List Item
    , draft : String
    , nextId : Int
    }

{-| How urgent an item is.
-}
type Priority
    = Low
    | High Int

{-| What the page can ask for.
-}
type Msg
    = DraftChanged String
    | Added
    | Toggled Int
    | Loaded (List Item)

{-| Sends the items to JavaScript to keep in localStorage.
-}
port saveItems : Encode.Value -> Cmd msg

port itemsLoaded : (Decode.Value -> msg) -> Sub msg

{-| Joins two parts of a path with a slash.
-}
infix right 7 (</>) = slash

slash : String -> String -> String
slash left right =
    left ++ "/" ++ right

maxItems : Int
maxItems =
    50

emptyModel =
    { items = [], draft = "", nextId = 1 }

main : Program Decode.Value Model Msg
main =
    Browser.element
        { init = init
        , update = update
        , view = view
        , subscriptions = subscriptions
        }

init : Decode.Value -> ( Model, Cmd Msg )
init flags =
    case Decode.decodeValue (Decode.list itemDecoder) flags of
        Ok items ->
            ( { emptyModel | items = items, nextId = List.length items + 1 }, Cmd.none )

        Err _ -> ( emptyModel, Cmd.none )

{-| Handles one message and saves the items when they change.
-}
update : Msg -> Model -> ( Model, Cmd Msg )
update msg model =
    case msg of
        DraftChanged draft ->
            ( { model | draft = draft }, Cmd.none )

        Added ->
            let
                item =
                    Item model.nextId model.draft False

                items =
                    List.take maxItems (model.items ++ [ item ])
            in
            ( { model | items = items, draft = "", nextId = model.nextId + 1 }, save items )

        Toggled id ->
            let
                flip item =
                    if item.id == id then
                        { item | done = not item.done }

                    else
                        item
            in
            ( model, save (List.map flip model.items) )

        Loaded items ->
            ( { model | items = items }, Cmd.none )

save : List Item -> Cmd Msg
save items =
    saveItems (Encode.list encodeItem items)

encodeItem : Item -> Encode.Value
encodeItem item =
    Encode.object [ ( "id", Encode.int item.id ), ( "title", Encode.string item.title ), ( "done", Encode.bool item.done ) ]

itemDecoder : Decoder Item
itemDecoder =
    Decode.map3 Item
        (Decode.field "id" Decode.int)
        (Decode.field "title" Decode.string)
        (Decode.field "done" Decode.bool)

subscriptions : Model -> Sub Msg
subscriptions _ =
    itemsLoaded (Decode.decodeValue (Decode.list itemDecoder) >> Result.withDefault [] >> Loaded)

view : Model -> Html Msg
view model =
    div [ Attr.class "todo" ]
        [ input [ Attr.value model.draft, onInput DraftChanged ] []
        , button [ onClick Added ] [ text "Add" ]
        , ul [] (List.map viewItem model.items)
        ]

viewItem : Item -> Html Msg
viewItem item =
    li [ onClick (Toggled item.id), Attr.id ("item" </> String.fromInt item.id) ]
        [ text item.title
        , text (Maybe.withDefault "" (List.head [ item.title ]) |> String.toUpper)
        ]
